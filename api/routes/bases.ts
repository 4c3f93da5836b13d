/** Where each API lives: the private intake API and the public and beta directory API. */
export const INTAKE_BASE = '/api/private/portfolio-intake/v1';
export const PUBLIC_BASE = '/api/v1';
