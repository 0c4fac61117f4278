// Progress for long work: a redrawn line on a terminal, nothing when stderr is a pipe or a log.

export interface Progress {
  update(done: number, total: number, note?: string): void;
  done(): void;
}

export function progress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  let last = 0;
  return {
    update(done, total, note) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${note ? ` ${note}` : ''}\x1b[K`);
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}
