package io.lifeline.connector.inbound.scrape;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into a byte array, refused (and the exchange cancelled) as soon as it grows beyond a
 * limit: a misbehaving endpoint cannot make Lifeline buffer an unbounded body. Shared by the dcgm-exporter
 * scrapes and the Prometheus queries.
 */
public final class LimitedBody implements HttpResponse.BodyHandler<byte[]> {

    private final int maxBytes;

    public LimitedBody(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
        return new Subscriber(maxBytes);
    }

    /** The body grew past the limit; it was abandoned, not read to its end. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(int maxBytes) {
            super("body larger than " + maxBytes + " bytes, abandoned");
        }
    }

    private static final class Subscriber implements HttpResponse.BodySubscriber<byte[]> {
        private final int maxBytes;
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final List<ByteBuffer> parts = new ArrayList<>();
        private Flow.Subscription subscription;
        private int size;

        Subscriber(int maxBytes) {
            this.maxBytes = maxBytes;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (body.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                size += b.remaining();
                if (size > maxBytes || size < 0) {
                    subscription.cancel();
                    parts.clear();
                    body.completeExceptionally(new TooLarge(maxBytes));
                    return;
                }
                parts.add(b);
            }
        }

        @Override
        public void onError(Throwable t) {
            parts.clear();
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            byte[] out = new byte[size];
            int at = 0;
            for (ByteBuffer b : parts) {
                int n = b.remaining();
                b.get(out, at, n);
                at += n;
            }
            parts.clear();
            body.complete(out);
        }
    }
}
