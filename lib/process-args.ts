// The arguments of a process entry point (npm run api, npm run worker): --help prints what it is and
// its environment variables, anything else is refused (exit 64). Each process is configured by its
// environment only.
import type { z } from 'zod';
import { environmentHelp } from './config';

export function takeNoArguments(o: { what: string; command: string; schema: z.ZodObject }): void {
  const args = process.argv.slice(2);
  if (args.some((a) => a === '--help' || a === '-h')) {
    console.log(environmentHelp(o.what, o.command, o.schema));
    process.exit(0);
  }
  if (args.length > 0) {
    console.error(`unknown argument ${args[0]}: ${o.command} takes no options (--help lists its environment variables)`);
    process.exit(64);
  }
}
