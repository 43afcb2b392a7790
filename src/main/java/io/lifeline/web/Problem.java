package io.lifeline.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An RFC 9457 problem document ({@code application/problem+json}).
 *
 * @param type    URI reference naming the kind of problem
 * @param title   short summary of the kind
 * @param status  HTTP status
 * @param detail  what went wrong this time
 * @param errors  per-item errors (for a batch: the index, id and reason of each rejected event), may be null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, List<?> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
}
