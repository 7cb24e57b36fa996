/**
 * The most bytes `text` can take in UTF-8: 3 for each UTF-16 unit (a surrogate pair's two take 4, a lone surrogate
 * is written as U+FFFD, 3). What a buffer written without measuring the text first must hold.
 */
export function maxUtf8Bytes(text: string): number {
  return 3 * text.length;
}
