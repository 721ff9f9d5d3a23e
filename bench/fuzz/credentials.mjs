/**
 * Which credential a request carries and which ids go in its path. "Foreign" means of the other
 * account than the credential's.
 */

export function pickCredential(ctx) {
  const { rng, fx, op } = ctx;
  if (ctx.isWellFormed && op.template === '/v1/crawler/hits') return fx.botTokenCredential;
  if (ctx.isWellFormed && op.template !== '/v1/auth/logout') return rng.pick(fx.capableCredentials);
  if (rng.chance(0.12)) return { label: 'none', headers: {} };
  if (rng.chance(0.1)) {
    const value = rng.pick([
      'Bearer',
      'Bearer ',
      `Bearer ${rng.text(rng.int(1, 80))}`,
      `Bearer tk_live_${rng.text(32)}`,
      `Bearer tt_bot_${rng.text(43)}`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `bearer ${fx.secrets[0].value}x`,
      `Bearer ${'a'.repeat(rng.int(1_000, 12_000))}`,
      `Bearer ${fx.secrets[0].value} ${fx.secrets[0].value}`,
      'Token ÿÿÿ',
    ]);
    return { label: 'malformed authorization', headers: { authorization: value } };
  }
  if (rng.chance(0.05)) {
    const cookie = rng.pick([
      `tt_session=${rng.text(43)}`,
      'tt_session=',
      'tt_session=%zz; tt_session=a',
      `a=${'b'.repeat(9000)}`,
    ]);
    return { label: 'bad session cookie', headers: { cookie } };
  }
  const credential = rng.pick(fx.credentials);
  // Logout ends the session it is sent with; the long-lived sessions must survive the run.
  if (op.template === '/v1/auth/logout' && credential.headers.cookie) {
    return {
      label: 'throwaway session',
      account: 'owner',
      headers: { cookie: rng.pick(fx.throwawayCookies) },
    };
  }
  return credential;
}

/** Ids for a path parameter: [value, account]; destructive operations get disposable objects. */
export function pathPool(op, param, fx) {
  const destroys = op.method === 'DELETE' || op.template.includes('/members/');
  const t = op.template;
  if (param === 'siteId') {
    return (t === '/v1/sites/{siteId}' && destroys) || t.endsWith('/restore')
      ? { owner: [fx.siteD.snippet_key], rival: [fx.rival.site.snippet_key] }
      : {
          owner: [fx.siteA.snippet_key, fx.siteA.uuid, fx.siteB.snippet_key],
          rival: [fx.rival.site.snippet_key],
        };
  }
  if (param === 'webhookId') {
    return { owner: destroys ? fx.disposable.webhooks : [fx.webhookId], rival: [fx.rival.webhookId] };
  }
  if (param === 'userId') return { owner: fx.disposable.members, rival: [fx.rival.userId] };
  if (param === 'tokenId') return { owner: fx.disposable.botTokens, rival: [fx.rival.botTokenId] };
  if (param === 'id' && t.startsWith('/v1/account/keys'))
    return { owner: fx.disposable.keys, rival: [fx.rival.keyId] };
  if (param === 'id') return { owner: fx.goalIds, rival: [fx.rival.goalId] };
  if (param === 'name') return { owner: ['signup', 'old_goal'], rival: [] };
  if (param === 'handle') return { owner: fx.handles, rival: [] };
  return { owner: ['x'], rival: [] };
}
