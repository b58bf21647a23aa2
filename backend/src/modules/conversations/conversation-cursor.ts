/** The inbox's page cursor: `<last_message_at>~<id>` of a page's last conversation (see common/keyset-cursor.ts). */
export { decodeCursor, encodeCursor } from '../../common/keyset-cursor.js';
