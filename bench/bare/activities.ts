// Trivial activities of the bare baseline workflow.
export async function stepOne(): Promise<void> {}
export async function stepTwo(): Promise<void> {}
