/** The trainers' answers to the commands Lifeline sends a job. */
package io.lifeline.domain.job.command;
