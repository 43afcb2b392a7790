package io.lifeline.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback that plays the network between two processes: it forwards, holds (a partition: nothing
 * moves either way and new connections wait, but no connection is broken, as when packets are dropped and TCP
 * retransmits until the network heals), refuses (every connection reset, new ones closed at once), slows (every
 * chunk of a request forwarded {@link #delay} late: an overloaded server) or fails (an HTTP server answering
 * {@code 503 Service Unavailable} to every new connection, open ones broken: a server restarting). With several
 * backends it shares connections out round robin, skipping a backend that does not answer: one address in front of
 * the replicas.
 */
final class FaultProxy implements AutoCloseable {

    enum Mode {
        FORWARD,
        HOLD,
        REFUSE,
        SLOW,
        FAIL
    }

    /** How late each request chunk is forwarded in {@link Mode#SLOW}. */
    volatile long delay = 3_000;

    private final String name;
    private final int port;
    private final List<InetSocketAddress> backends;
    private final AtomicInteger next = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<Integer> down = ConcurrentHashMap.newKeySet();
    private volatile Mode mode = Mode.FORWARD;
    private volatile boolean heldRequest;
    private ServerSocket server;
    private volatile boolean running = true;

    FaultProxy(String name, int port, List<Integer> backendPorts) {
        this.name = name;
        this.port = port;
        this.backends = backendPorts.stream()
                .map(p -> new InetSocketAddress(InetAddress.getLoopbackAddress(), p))
                .toList();
    }

    FaultProxy start() throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 512);
        Thread t = new Thread(this::accept, "proxy-" + name);
        t.setDaemon(true);
        t.start();
        return this;
    }

    int port() {
        return port;
    }

    /** Changes what the network does from now on; REFUSE also breaks every open connection. */
    void mode(Mode m) {
        heldRequest = false;
        mode = m;
        if (m == Mode.REFUSE || m == Mode.FAIL) {
            for (Socket s : open) {
                closeQuietly(s);
            }
        }
    }

    /** Whether bytes from a client arrived while held: a request is in flight and waits for the network. */
    boolean heldRequest() {
        return heldRequest;
    }

    /** Takes a backend out of (or back into) the rotation of new connections. */
    void backendDown(int index, boolean isDown) {
        if (isDown) {
            down.add(index);
        } else {
            down.remove(index);
        }
    }

    private void accept() {
        while (running) {
            try {
                Socket client = server.accept();
                if (mode == Mode.REFUSE) {
                    closeQuietly(client);
                    continue;
                }
                Thread t = new Thread(
                        () -> {
                            if (mode == Mode.FAIL) {
                                unavailable(client);
                            } else {
                                connect(client);
                            }
                        },
                        "proxy-" + name + "-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!running) {
                    return;
                }
            }
        }
    }

    private void connect(Socket client) {
        // A client connecting while the network is held has a request to make.
        awaitNotHeld(true);
        Socket upstream = null;
        for (int attempt = 0; attempt < backends.size() && upstream == null; attempt++) {
            int i = Math.floorMod(next.getAndIncrement(), backends.size());
            if (down.contains(i) && attempt < backends.size() - 1) {
                continue;
            }
            try {
                Socket s = new Socket();
                s.connect(backends.get(i), 2_000);
                upstream = s;
            } catch (IOException e) {
                // try the next backend
            }
        }
        if (upstream == null || mode == Mode.REFUSE) {
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        try {
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
        } catch (IOException e) {
            // not important
        }
        open.add(client);
        open.add(upstream);
        Socket up = upstream;
        Thread back = new Thread(() -> pump(up, client, false), "proxy-" + name + "-down");
        back.setDaemon(true);
        back.start();
        pump(client, upstream, true);
    }

    /** Reads the request's head and answers 503, as an HTTP server that is restarting does. */
    private void unavailable(Socket client) {
        try (client) {
            client.setSoTimeout(5_000);
            InputStream in = client.getInputStream();
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            int b;
            while (matched < 4 && (b = in.read()) >= 0) {
                matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
            }
            String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":503,"
                    + "\"message\":\"the server is currently unable to handle the request\"}";
            client.getOutputStream()
                    .write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                                    + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body)
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
        } catch (IOException e) {
            // the client went away first
        }
    }

    private void pump(Socket from, Socket to, boolean request) {
        byte[] buf = new byte[65536];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                awaitNotHeld(request);
                if (mode == Mode.REFUSE || mode == Mode.FAIL) {
                    break;
                }
                if (request && mode == Mode.SLOW) {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed or was reset: close both
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private void awaitNotHeld(boolean request) {
        while (mode == Mode.HOLD && running) {
            if (request) {
                heldRequest = true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() {
        running = false;
        mode = Mode.FORWARD;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : open) {
            closeQuietly(s);
        }
    }
}
