/**
 * Checks the crawler reporter's settings when it is created, as the client checks its own, so a
 * missing token fails at start-up instead of as a 401 on the first batch. Messages never repeat
 * the token, even a wrong one.
 */
import { invalid } from '../client/options.js';

/** The prefix, then printable characters only: a stray newline or space would break the header. */
const BOT_TOKEN_SHAPE = /^tt_bot_[\x21-\x7e]+$/;
const SNIPPET_KEY_SHAPE = /^ttid_[0-9A-Za-z]{22}$/;

export function checkCrawlerOptions(options: { snippetKey?: unknown; token?: unknown }): void {
  if (typeof options?.token !== 'string' || !BOT_TOKEN_SHAPE.test(options.token)) {
    throw invalid(
      'token must be the bot token starting with tt_bot_ (POST /v1/account/bot-tokens returns it once); ' +
        'API keys (tk_live_) are not accepted',
    );
  }
  if (typeof options.snippetKey !== 'string' || !SNIPPET_KEY_SHAPE.test(options.snippetKey)) {
    throw invalid(
      "snippetKey must be the site's ttid_ snippet key (the bot token's snippet_key, not its id)",
    );
  }
}
