// Work the run command does once the stack is ready (demo credentials, demo directory).
import type { StackConfig } from '../lib/config';

export async function afterStackReady(_o: { databaseUrl: string; apiUrl: string; cfg: StackConfig }): Promise<string[]> {
  return [];
}
