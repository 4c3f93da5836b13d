// The command-line tools' options (the dev and bench scripts): `--help` prints what the tool does
// and every option with its default; a mistake is one line and the usage on stderr, exit 64,
// never a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The usage text: the description, then each option (with its default) and -h / --help. */
export function usageOf(about: string, command: string, options: Options, positionals = ''): string {
  const lines = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ' <value>' : ''}`;
    const def = o.default !== undefined && o.default !== false ? ` (default ${Array.isArray(o.default) ? o.default.join(',') : String(o.default)})` : '';
    return `  ${flag}${def}`;
  });
  return [about, '', `usage: ${command}${Object.keys(options).length ? ' [options]' : ''}${positionals ? ` ${positionals}` : ''}`, '', 'options:', ...lines, '  -h, --help'].join('\n');
}

export function parseCli<T extends ParseArgsConfig & { options: Options }>(about: string, command: string, config: T): ReturnType<typeof parseArgs<T>> {
  const usage = usageOf(about, command, config.options, config.allowPositionals ? '[arguments]' : '');
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs({ ...config, options: { ...config.options, help: { type: 'boolean', short: 'h' } } } as T);
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
