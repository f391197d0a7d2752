import type { Db } from '../db/index.ts';

export const insertContactMessage = (
  db: Db,
  m: { userId: number | null; name: string; email: string; message: string; language: 'en' | 'bn' },
) =>
  db.query('INSERT INTO contact_messages (user_id, name, email, message, language) VALUES ($1, $2, $3, $4, $5)', [
    m.userId,
    m.name,
    m.email,
    m.message,
    m.language,
  ]);
