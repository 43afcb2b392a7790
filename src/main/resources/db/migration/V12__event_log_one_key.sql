-- Since V9 the durable key of an event is (source, event_id) in event_ids, which every write of the log goes through
-- first. The log's own unique key on (source, event_id, time) only repeated it, at the price of one more index of
-- long text keys to update on every insert, on the ingest's hot path.
ALTER TABLE event_log DROP CONSTRAINT event_log_source_event_id_time_key;
