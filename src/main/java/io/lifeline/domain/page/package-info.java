/**
 * How every list answer is paged: {@link io.lifeline.domain.page.Page} (the items of one page and the cursor of the
 * next) and {@link io.lifeline.domain.page.Cursor} (the one opaque cursor format, which still reads the forms earlier
 * releases gave out). Pure Java and below every other package, so the model, the services and the edges share it.
 */
package io.lifeline.domain.page;
