import path from 'node:path';

/**
 * Where uploads are kept under DATA_DIR, outside the web root. Here, below the features and the jobs, because the chat
 * stores its media there and the retention job (server/jobs/upload-retention.ts) prunes it.
 */
export const chatMediaDir = (dataDir: string) => path.join(dataDir, 'chat-media');
