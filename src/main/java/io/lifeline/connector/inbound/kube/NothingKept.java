package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer store that keeps nothing, for kinds whose objects only need to be seen once and are numerous
 * (core Events: every Event of the cluster would otherwise be held in memory). Every notification arrives as an
 * add; a relist after a lost watch delivers the current objects again, which the derived event ids turn into
 * duplicates. Deletions are not reported.
 */
final class NothingKept<T extends HasMetadata> implements ItemStore<T> {

    @Override
    public String getKey(T obj) {
        String ns = obj.getMetadata().getNamespace();
        return ns == null
                ? obj.getMetadata().getName()
                : ns + "/" + obj.getMetadata().getName();
    }

    @Override
    public T put(String key, T obj) {
        return null;
    }

    @Override
    public T remove(String key) {
        return null;
    }

    @Override
    public Stream<String> keySet() {
        return Stream.empty();
    }

    @Override
    public Stream<T> values() {
        return Stream.empty();
    }

    @Override
    public int size() {
        return 0;
    }

    @Override
    public T get(String key) {
        return null;
    }

    @Override
    public boolean isFullState() {
        return false;
    }
}
