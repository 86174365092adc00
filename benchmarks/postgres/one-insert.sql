-- PostgreSQL's own one-row commit: the reference of benchmarks/postgres.
-- pgbench -n -f one-insert.sql -c 8 -T S runs it as one transaction (one
-- commit) per execution; the benchmark creates the table first.
INSERT INTO one_row (client, note) VALUES (:client_id, 'one row, one commit');
