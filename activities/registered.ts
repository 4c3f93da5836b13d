// The intake's activities, as createActivities builds them (activities/index.ts): registering an
// activity there is all it takes for workflow code to call it. A type only, in a file of its own so
// the signatures (types.ts) do not import the registry that imports them; workflow code imports it
// with `import type`, which the bundle erases.
import type { createActivities } from './index';

export type IntakeActivities = ReturnType<typeof createActivities>;
