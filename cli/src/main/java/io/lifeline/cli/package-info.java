/**
 * {@code lifelinectl}, the operator command line (also the kubectl plugin {@code kubectl lifeline}). A client of the
 * public REST API only: a Maven project of its own ({@code cli/pom.xml}) whose class path holds just the JDK, picocli
 * and Jackson, so nothing of the server can be imported, and it starts with a short class path.
 */
package io.lifeline.cli;
