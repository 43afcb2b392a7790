/** Small mechanisms the parts of the model share (pure Java, like the rest of the domain). */
package io.lifeline.domain.support;
