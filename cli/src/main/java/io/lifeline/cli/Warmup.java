package io.lifeline.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code __warmup}: runs the common commands once against a canned local answer so that the launcher can record the
 * classes they load in a class-data sharing archive (AppCDS), which later starts read from memory-mapped, already
 * parsed and verified form. Prints nothing; never talks to a real server.
 */
@Command(name = "__warmup", hidden = true)
final class Warmup extends Base {

    private static final String JOBS = "{\"items\":[{\"name\":\"ns/job\",\"namespace\":\"ns\",\"state\":\"RUNNING\","
            + "\"stateSince\":\"2026-01-01T00:00:00Z\",\"gpusHeld\":8,\"worldSize\":8,\"nodes\":1,\"restarts\":0,"
            + "\"maxRestarts\":3,\"freshnessAgeMillis\":1000,\"freshnessBreached\":false,\"ettr\":0.9,"
            + "\"openIncident\":null,\"submittedAt\":\"2026-01-01T00:00:00Z\"}],\"total\":1,\"offset\":0,\"limit\":1000}";

    @Override
    int run() {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> serve(server), "warmup");
            t.setDaemon(true);
            t.start();
            String url = "http://127.0.0.1:" + server.getLocalPort();
            Map<String, String> env = new HashMap<>(term().env());
            env.put("LIFELINECONFIG", "/nonexistent/lifelinectl-warmup.yaml");
            env.put("LIFELINECTL_TTY", "1");
            env.put("LIFELINECTL_COLUMNS", "120");
            for (String[] args : new String[][] {
                {"get", "jobs"},
                {"get", "jobs", "-o", "json"},
                {"get", "jobs", "-o", "yaml"},
                {"get", "jobs", "-o", "wide", "--absolute"},
                {"get", "nodes", "-o", "name"},
                {"--help"}
            }) {
                String[] all = new String[args.length + 4];
                System.arraycopy(args, 0, all, 0, args.length);
                System.arraycopy(new String[] {"--server", url, "--token", "llt_warmup"}, 0, all, args.length, 4);
                Main.run(
                        all,
                        env,
                        InputStream.nullInputStream(),
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(new StringWriter()));
            }
            Config.load(Config.location(Map.of("LIFELINECONFIG", "/nonexistent/x.yaml")));
            Json.yaml().readTree("current-context: a\ncontexts:\n- name: a\n  server: http://x\n");
        } catch (IOException e) {
            throw new CliException(Exit.FAILED, "warm-up failed: " + e.getMessage());
        }
        return Exit.OK;
    }

    private static void serve(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                byte[] buf = new byte[8192];
                int n = 0;
                while (n < buf.length) {
                    int r = in.read(buf, n, buf.length - n);
                    if (r < 0) {
                        break;
                    }
                    n += r;
                    if (new String(buf, 0, n, StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                        break;
                    }
                }
                byte[] body = JOBS.getBytes(StandardCharsets.UTF_8);
                OutputStream o = s.getOutputStream();
                o.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                o.write(body);
                o.flush();
            } catch (IOException e) {
                return;
            }
        }
    }
}
