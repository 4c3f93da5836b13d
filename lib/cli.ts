// The command-line tools' options (the dev and bench scripts): `--help` prints what the tool does
// and every option with its default; a mistake is one line and the usage on stderr, exit 64,
// never a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseOptions = NonNullable<ParseArgsConfig['options']>;
/** node's option config, plus the line `--help` prints for it. */
type Options = Record<string, ParseOptions[string] & { description?: string }>;

/** The usage text: the description, then each option (with its default) and -h / --help. */
export function usageOf(about: string, command: string, options: Options, positionals = ''): string {
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ' <value>' : ''}`;
    const def = o.default !== undefined && o.default !== false ? ` (default ${Array.isArray(o.default) ? o.default.join(',') : String(o.default)})` : '';
    return [flag, `${o.description ?? ''}${def}`.trim()] as const;
  });
  rows.push(['-h, --help', 'this text']);
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const lines = rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`.trimEnd());
  // `npm run x --` only when something follows it (npm passes what comes after `--` to the tool)
  const tail = `${Object.keys(options).length ? ' [options]' : ''}${positionals ? ` ${positionals}` : ''}`;
  const cmd = tail ? command : command.replace(/ --$/, '');
  return [about, '', `usage: ${cmd}${tail}`, '', 'options:', ...lines].join('\n');
}

export function parseCli<T extends ParseArgsConfig & { options: Options }>(about: string, command: string, config: T): ReturnType<typeof parseArgs<T>> {
  const usage = usageOf(about, command, config.options, config.allowPositionals ? '[arguments]' : '');
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    // node refuses keys it does not know: the descriptions stay here
    const options: ParseOptions = Object.fromEntries(Object.entries(config.options).map(([name, { description: _d, ...o }]) => [name, o]));
    parsed = parseArgs({ ...config, options: { ...options, help: { type: 'boolean', short: 'h' } } } as T);
  } catch (err) {
    // node's hint about positionals starting with '-' is noise in a one-line refusal
    console.error(`${(err as Error).message.replace(/\. To specify a positional.*$/s, '')}\n\n${usage}`);
    process.exit(64); // EX_USAGE
  }
  if ((parsed.values as Record<string, unknown>).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}
