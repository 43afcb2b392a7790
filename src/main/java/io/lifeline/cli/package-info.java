/**
 * {@code lifelinectl}, the operator command line (also the kubectl plugin {@code kubectl lifeline}). A client of the
 * public REST API only: it imports nothing of the server, just the JDK, picocli and Jackson, and is packaged on its
 * own into {@code target/cli} so that it starts with a short class path.
 */
package io.lifeline.cli;
