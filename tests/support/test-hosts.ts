// The project's own test hosts: network namespaces, each with its own network stack joined to this
// one by a veth pair, so a worker "on another host" reaches Redis over a real interface and not
// loopback. Creating them needs root and iproute2; where the machine does not allow it, `create`
// says why and the caller falls back to loopback.
import { execFileSync } from 'node:child_process';

export interface TestHost {
  /** The namespace's name, for `ip netns exec`. */
  readonly name: string;
  /** This side's address on the host's link: what the host reaches us at. */
  readonly gateway: string;
  /** The command prefix that runs a program on the host. */
  readonly prefix: readonly string[];
}

export class TestHosts {
  private constructor(readonly hosts: readonly TestHost[]) {}

  /** `count` hosts, or the reason they cannot be made here. */
  static create(count: number): TestHosts | { readonly unavailable: string } {
    const tag = process.pid % 10_000;
    const net = 100 + (process.pid % 100);
    const made: TestHost[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const name = `zetta-${process.pid}-${i}`;
        const link = `zh${tag}x${i}`;
        const gateway = `10.${net}.${i}.1`;
        ip('netns', 'add', name);
        made.push({ name, gateway, prefix: ['ip', 'netns', 'exec', name] });
        ip('link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name);
        ip('addr', 'add', `${gateway}/30`, 'dev', link);
        ip('link', 'set', link, 'up');
        ip('netns', 'exec', name, 'ip', 'addr', 'add', `10.${net}.${i}.2/30`, 'dev', 'eth0');
        ip('netns', 'exec', name, 'ip', 'link', 'set', 'eth0', 'up');
        ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
      }
      return new TestHosts(made);
    } catch (err) {
      new TestHosts(made).remove();
      return { unavailable: `network namespaces cannot be made here (${(err as Error).message.split('\n')[0]})` };
    }
  }

  /** Deletes every namespace (its end of the veth pair goes with it, and so does ours). */
  remove(): void {
    for (const h of this.hosts) {
      try {
        ip('netns', 'del', h.name);
      } catch {
        // already gone
      }
    }
  }
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
