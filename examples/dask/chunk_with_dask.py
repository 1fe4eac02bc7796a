#!/usr/bin/env python3
"""Chunk a corpus on a Dask cluster with chunkscope's JSONL filter mode.

Each partition of a Dask bag of documents (one JSON object per line: {"id", "text", "path"?, "metadata"?}) is piped
through `chunkscope chunk - --input jsonl --format jsonl` in a subprocess; the chunk lines that come back are the
bag's new items. Every worker runs the same chunkscope with the same flags, so the output equals one single run of
the filter (chunk ids are deterministic: sha256 of document id, configuration hash and span).

    python3 chunk_with_dask.py docs.jsonl chunks.jsonl --workers 4 -- --strategy recursive --size 512

Options: --workers N (LocalCluster workers; default 4), --scheduler ADDRESS (an existing cluster instead),
--blocksize (bytes of input per partition, default 1 MiB), --threads (LocalCluster workers as threads of this
process: quicker to start, the same bag), --chunkscope "COMMAND" (how to run chunkscope; default "chunkscope",
e.g. "npx chunkscope"). Flags after -- are chunkscope's chunk options. Needs dask[bag] and distributed
(Debian: apt-get install python3-distributed).
"""
import argparse
import shlex
import subprocess
import sys

import dask.bag as db
from distributed import Client, LocalCluster


def chunk_partition(lines, command):
    """One partition of document lines through the filter; its chunk lines back. Bad lines are reported on the
    worker's stderr by chunkscope and skipped; a non-zero exit (nothing could be chunked) fails the task."""
    documents = "".join(line if line.endswith("\n") else line + "\n" for line in lines if line.strip())
    if not documents:
        return []
    done = subprocess.run(command, input=documents.encode("utf-8"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.stderr:
        sys.stderr.write(done.stderr.decode("utf-8", "replace"))
    if done.returncode != 0:
        raise RuntimeError(f"chunkscope exited {done.returncode}: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout.decode("utf-8").splitlines()


def main(argv):
    at = argv.index("--") if "--" in argv else len(argv)
    own, chunk_flags = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="documents, one JSON object per line")
    parser.add_argument("output", help="where the chunk lines go (one JSON object per line)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", action="store_true", help="LocalCluster workers as threads (processes=False)")
    parser.add_argument("--scheduler", help="address of an existing Dask scheduler")
    parser.add_argument("--blocksize", default="1MiB")
    parser.add_argument("--chunkscope", default="chunkscope", help='how to run chunkscope, e.g. "npx chunkscope"')
    args = parser.parse_args(own)
    command = shlex.split(args.chunkscope) + ["chunk", "-", "--input", "jsonl", "--format", "jsonl"] + chunk_flags

    if args.scheduler:
        cluster, client = None, Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=not args.threads, dashboard_address=None)
        client = Client(cluster)
    try:
        documents = db.read_text(args.input, blocksize=args.blocksize)
        chunks = documents.map_partitions(chunk_partition, command)
        workers = len(client.scheduler_info()["workers"])
        lines = chunks.compute()
        with open(args.output, "w", encoding="utf-8") as out:
            for line in lines:
                out.write(line + "\n")
        print(f"{documents.npartitions} partitions on {workers} workers: {len(lines)} chunks", file=sys.stderr)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main(sys.argv[1:])
