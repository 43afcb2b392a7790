package io.lifeline.security.identity;

/** The caller is known but may not do this (HTTP 403). The message says what was missing, never a secret. */
public class AccessDeniedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AccessDeniedException(String message) {
        super(message);
    }
}
