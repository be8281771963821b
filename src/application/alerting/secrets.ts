/**
 * Secrets the service must use again (webhook signing secrets, Slack webhook URLs) are stored
 * encrypted: AES-256-GCM under a key derived (HKDF-SHA256) from the service's session secret,
 * with a random 12-byte nonce per value. Format: `v1.<nonce>.<ciphertext+tag>`, base64url.
 * Changing SESSION_SECRET makes stored channel secrets unreadable: those channels fail their
 * deliveries ("cannot decrypt") until they are created again (docs/ARCHITECTURE.md).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export class SecretBox {
  private readonly key: Buffer;

  constructor(serviceSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serviceSecret, 'sightline', 'alert-channel-secrets v1', 32));
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${nonce.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The plain text, or null when the value was sealed under another key or altered. */
  open(sealed: string): string | null {
    const [version, nonce, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !body) return null;
    try {
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
