package io.lifeline.cli;

/** {@code Label:   value} lines with the values aligned, as {@code describe} prints them. */
final class Describer {

    private static final int WIDTH = 30;

    private final Out out;
    private final String indent;

    Describer(Out out, int indent) {
        this.out = out;
        this.indent = " ".repeat(indent);
    }

    Describer field(String label, String value) {
        String l = label + ":";
        int w = Math.max(WIDTH - indent.length(), 16);
        out.line(indent + l + " ".repeat(Math.max(1, w - l.length())) + (value == null ? "-" : value));
        return this;
    }

    Describer section(String title) {
        out.line(indent + title + ":");
        return this;
    }
}
