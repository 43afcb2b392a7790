package io.lifeline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fenced code blocks of a Markdown document, read from the file when a test runs, so that a test runs or checks
 * what the document shows and not a copy of it. Each block knows the level-2 section it is in and its line, and a
 * shell block splits into the commands a reader would type.
 */
public final class MarkdownDoc {

    /** One fenced block. {@code lang} is the fence's info string ("sh", "json", "" when none). */
    public record Block(Path file, String section, int line, String lang, String text) {

        /**
         * The commands of a shell block as a shell reads them: a line continued by a trailing backslash or by a quote
         * still open (a JSON body across lines) is one command with its lines; blank lines and lines that are only a
         * comment (a command's sample output, say) are dropped. A comment after a command stays part of it.
         */
        public List<Command> commands() {
            List<Command> out = new ArrayList<>();
            StringBuilder command = new StringBuilder();
            int first = 0;
            ShellLine state = ShellLine.START;
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String l = lines[i];
                if (command.length() == 0) {
                    String t = l.strip();
                    if (t.isEmpty() || t.startsWith("#")) {
                        continue;
                    }
                    first = line + 1 + i;
                } else {
                    command.append('\n');
                }
                command.append(l);
                state = state.scan(l);
                if (!state.continues()) {
                    out.add(new Command(this, first, command.toString()));
                    command.setLength(0);
                    state = ShellLine.START;
                }
            }
            if (command.length() > 0) {
                throw new IllegalStateException(file + ":" + first + ": a command that never ends (open quote or "
                        + "trailing backslash): " + command);
            }
            return out;
        }
    }

    /** A command of a shell block, with where it is. */
    public record Command(Block block, int line, String text) {

        /** {@code README.md:42}: for messages. */
        public String where() {
            return block.file() + ":" + line;
        }

        /** The command without a trailing comment, on one line (continuations joined): for matching and messages. */
        public String plain() {
            return ShellLine.withoutComment(text).replaceAll("\\\\\n\\s*", "").strip();
        }
    }

    /** How far a shell line leaves the reader: inside a quote, after a backslash, or at the end of a command. */
    private record ShellLine(boolean inSingle, boolean inDouble, boolean backslash) {

        static final ShellLine START = new ShellLine(false, false, false);

        boolean continues() {
            return inSingle || inDouble || backslash;
        }

        ShellLine scan(String l) {
            boolean single = inSingle;
            boolean dbl = inDouble;
            boolean escaped = false;
            for (int i = 0; i < l.length(); i++) {
                char c = l.charAt(i);
                if (single) {
                    single = c != '\'';
                } else if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (dbl) {
                    dbl = c != '"';
                } else if (c == '\'') {
                    single = true;
                } else if (c == '"') {
                    dbl = true;
                } else if (c == '#' && (i == 0 || Character.isWhitespace(l.charAt(i - 1)))) {
                    return new ShellLine(false, false, false);
                }
            }
            return new ShellLine(single, dbl, escaped && !single && !dbl);
        }

        /** {@code text} up to an unquoted comment. */
        static String withoutComment(String text) {
            boolean single = false;
            boolean dbl = false;
            boolean escaped = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (single) {
                    single = c != '\'';
                } else if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (dbl) {
                    dbl = c != '"';
                } else if (c == '\'') {
                    single = true;
                } else if (c == '"') {
                    dbl = true;
                } else if (c == '#' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
                    return text.substring(0, i);
                }
            }
            return text;
        }
    }

    private final Path file;
    private final List<Block> blocks;

    private MarkdownDoc(Path file, List<Block> blocks) {
        this.file = file;
        this.blocks = blocks;
    }

    /** Reads {@code file} (relative to the repository, where the tests run). */
    public static MarkdownDoc read(Path file) {
        try {
            return parse(file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code text}, a Markdown document or a part of one, read as {@code file}. */
    public static MarkdownDoc parse(Path file, String text) {
        List<Block> blocks = new ArrayList<>();
        String section = "";
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.startsWith("## ")) {
                section = l.substring(3).strip();
            } else if (l.startsWith("```")) {
                String fence =
                        l.substring(0, l.length() - l.replaceFirst("^`+", "").length());
                String lang = l.substring(fence.length()).strip();
                int start = i;
                StringBuilder body = new StringBuilder();
                for (i++; i < lines.length && !lines[i].strip().equals(fence); i++) {
                    body.append(lines[i]).append('\n');
                }
                if (i == lines.length) {
                    throw new IllegalStateException(file + ":" + (start + 1) + ": a code block that is never closed");
                }
                blocks.add(new Block(file, section, start + 1, lang, body.toString()));
            }
        }
        return new MarkdownDoc(file, List.copyOf(blocks));
    }

    public Path file() {
        return file;
    }

    /** Every fenced block, in document order. */
    public List<Block> blocks() {
        return blocks;
    }

    /** The blocks whose fence names {@code lang}. */
    public List<Block> blocks(String lang) {
        return blocks.stream().filter(b -> b.lang().equals(lang)).toList();
    }

    /** The blocks in the level-2 section headed {@code heading}; fails if the document has no such section. */
    public List<Block> section(String heading) {
        List<Block> in =
                blocks.stream().filter(b -> b.section().equals(heading)).toList();
        if (in.isEmpty()) {
            throw new IllegalStateException(file + " has no code block under '## " + heading + "'");
        }
        return in;
    }
}
