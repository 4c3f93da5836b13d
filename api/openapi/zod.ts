// zod, extended once with .openapi() (zod-to-openapi): every module whose schemas carry OpenAPI
// names or descriptions imports `z` from here, so the extension is in place before they run.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
