// The flag table: each flag parses its text into a typed value or says in one line what is wrong,
// and --help's flag lines come from the same definitions.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/command.js';
import { bool, fraction, int, loaded, text } from '../../cli/flags/flag.js';
import { flagHelp } from '../../cli/flags/help.js';
import { readFlags } from '../../cli/flags/read.js';

/** A parser of another module: what it throws becomes a usage error with the same message. */
function pair(t: string): [string, string] {
  const [a, b] = t.split(':');
  if (!b) throw new Error(`"${t}" is not A:B`);
  return [a!, b];
}

const FLAGS = {
  episodes: int('episodes', { metavar: 'N', min: 1, help: 'episodes per task' }).default(50),
  seed: int('seed', { metavar: 'S', min: 0, help: 'first seed' }),
  cap: fraction('cap', { metavar: 'R', help: 'a cap' }).default(0.1),
  task: text('task', { metavar: 'T', help: 'a task id' }).required(),
  pair: loaded('pair', { metavar: 'A:B', help: 'two words', parse: pair }),
  json: bool('json', 'last line: one JSON object'),
};

const read = (...argv: string[]) => readFlags(argv, FLAGS);

describe('readFlags', () => {
  it('gives typed values, defaults for what is absent', () => {
    expect(read('--task', 'x', '--seed', '7', '--json')).toEqual({
      episodes: 50,
      seed: 7,
      cap: 0.1,
      task: 'x',
      pair: undefined,
      json: true,
    });
    expect(read('--task=x', '--pair', 'a:b', '--cap', '1')).toMatchObject({ pair: ['a', 'b'], cap: 1, json: false });
  });

  it('returns help before checking anything else', () => {
    expect(read('--episodes', 'many', '--help')).toBe('help');
    expect(read('-h')).toBe('help');
  });

  it.each([
    [['--task', 'x', '--episodes', '0'], '--episodes must be an integer from 1 to 1000000 in decimal digits, got "0"'],
    [['--task', 'x', '--episodes', '-3'], '--episodes must be an integer from 1 to 1000000 in decimal digits, got "-3"'],
    [['--task', 'x', '--episodes', '1.5'], '--episodes must be an integer from 1 to 1000000 in decimal digits, got "1.5"'],
    // Number() read these: a billion episodes, 16 of them, a seed that lost its low digits
    [['--task', 'x', '--episodes', '1e9'], '--episodes must be an integer from 1 to 1000000 in decimal digits, got "1e9"'],
    [['--task', 'x', '--episodes', '0x10'], '--episodes must be an integer from 1 to 1000000 in decimal digits, got "0x10"'],
    [['--task', 'x', '--episodes', ' 7 '], 'got " 7 "'],
    [['--task', 'x', '--episodes', '+7'], 'got "+7"'],
    [['--task', 'x', '--episodes', '1000001'], 'got "1000001"'],
    [['--task', 'x', '--seed', '1e20'], '--seed must be an integer from 0 to 1000000 in decimal digits, got "1e20"'],
    [['--task', 'x', '--seed', '100000000000000000000'], 'got "100000000000000000000"'],
    [['--task', 'x', '--cap', '2'], '--cap must be a number from 0 to 1, got "2"'],
    [['--task', 'x', '--pair', 'a'], '"a" is not A:B'],
    [[], '--task is required'],
    [['--task', ''], '--task is required'],
    [['--task', 'x', '--bogus'], "Unknown option '--bogus'"],
    [['--task'], "Option '--task <value>' argument missing"],
    [['--task', 'x', '--json=1'], "Option '--json' does not take an argument"],
    [['--task', 'x', 'extra'], "Unexpected argument 'extra'"],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => read(...argv)).toThrow(UsageError);
    expect(() => read(...argv)).toThrow(message);
  });

  it('reports the first bad flag in the order the command lists them', () => {
    expect(() => read('--seed', '-1', '--episodes', '0', '--task', 'x')).toThrow('--episodes');
  });

  it('reads plain decimal integers up to the maximum, leading zeros included', () => {
    expect(read('--task', 'x', '--episodes', '1000000', '--seed', '007')).toMatchObject({ episodes: 1_000_000, seed: 7 });
  });

  it('lets a command change the help, placeholder and bounds of a shared flag', () => {
    const wide = FLAGS.seed.with({ min: 5, max: 9, help: 'workload seed', metavar: 'N' });
    expect(() => readFlags(['--seed', '4'], { seed: wide })).toThrow('--seed must be an integer from 5 to 9 in decimal digits, got "4"');
    expect(() => readFlags(['--seed', '10'], { seed: wide })).toThrow('--seed must be an integer from 5 to 9 in decimal digits, got "10"');
    expect(flagHelp({ seed: wide })).toBe('  --seed N  workload seed');
  });
});

describe('flagHelp', () => {
  it('aligns the help in one column, with continuation lines and the default at the end', () => {
    const help = flagHelp({
      episodes: FLAGS.episodes,
      long: int('a-very-long-flag-name', { metavar: 'N', min: 0, help: 'first line\nsecond line' }).default(3, '3, or so'),
      json: FLAGS.json,
    });
    expect(help.split('\n')).toEqual([
      '  --episodes N  episodes per task (default 50)',
      '  --a-very-long-flag-name N',
      '                first line',
      '                second line (default 3, or so)',
      '  --json        last line: one JSON object',
    ]);
  });
});
