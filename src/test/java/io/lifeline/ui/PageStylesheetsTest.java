package io.lifeline.ui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every stylesheet a dashboard page links is served, as CSS: a link to a file that is not there answers with the
 * page itself (text/html), which the browser refuses and logs on every page.
 */
@QuarkusTest
class PageStylesheetsTest {

    private static final Pattern LINK = Pattern.compile("<link\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern HREF = Pattern.compile("href=\"([^\"]*)\"", Pattern.CASE_INSENSITIVE);

    @Test
    void everyLinkedStylesheetIsServedAsCss() {
        for (String page : List.of("/login", "/", "/fleet")) {
            String html = given().redirects()
                    .follow(true)
                    .get(page)
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
            assertThat(html).as(page).contains("<head");
            for (String href : stylesheets(html)) {
                assertThat(href).as("a stylesheet of %s", page).doesNotContain("//");
                Response r = given().redirects().follow(false).get("/" + href);
                assertThat(r.statusCode()).as("%s linked by %s", href, page).isEqualTo(200);
                assertThat(r.contentType()).as("%s linked by %s", href, page).startsWith("text/css");
            }
        }
    }

    /** The href of each {@code <link rel="stylesheet">}, relative to the page's base. */
    private static List<String> stylesheets(String html) {
        List<String> hrefs = new ArrayList<>();
        Matcher link = LINK.matcher(html);
        while (link.find()) {
            String tag = link.group();
            Matcher href = HREF.matcher(tag);
            if (tag.toLowerCase(Locale.ROOT).contains("stylesheet") && href.find()) {
                hrefs.add(href.group(1).replaceFirst("^\\./", "").replaceFirst("^/", ""));
            }
        }
        return hrefs;
    }
}
