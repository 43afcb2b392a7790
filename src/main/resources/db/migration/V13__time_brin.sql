-- The time indexes of event_ids, job_records and job_timeline serve only retention, which deletes the rows older than
-- a cutoff. Rows arrive in about the order of their time, so a BRIN index (a few pages summarising block ranges)
-- finds them as well as a B-tree would, and costs next to nothing on every insert of the ingest's hot path, where
-- each B-tree was one more index entry to write per row.
DROP INDEX event_ids_time;
CREATE INDEX event_ids_time ON event_ids USING brin (time);
DROP INDEX job_records_time;
CREATE INDEX job_records_time ON job_records USING brin (time);
DROP INDEX job_timeline_time;
CREATE INDEX job_timeline_time ON job_timeline USING brin (time);
