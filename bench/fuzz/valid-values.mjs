/**
 * Values that pass validation, from a parameter's name or its JSON schema, so that the mutations
 * applied afterwards reach past the validator.
 */

const dateDaysAgo = (days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

function siteRefFor(schema, ctx) {
  const { rng, fx } = ctx;
  const site = rng.chance(0.85) ? fx.siteA : fx.siteB;
  const pattern = schema?.pattern ?? '';
  if (schema?.format === 'uuid' || (pattern.includes('{8}-') && !pattern.includes('ttid'))) return site.uuid;
  if (pattern.includes('{8}-') && rng.chance(0.2)) return site.uuid;
  return site.snippet_key;
}

function validByName(name, schema, ctx) {
  const { rng, fx, op } = ctx;
  switch (name) {
    case 'site_id':
    case 'site':
      return siteRefFor(schema, ctx);
    case 'url':
      return op.template.includes('webhooks')
        ? rng.pick([fx.receiverUrl, `${fx.receiverUrl}?fuzz=${rng.int(0, 99)}`])
        : `https://${fx.siteA.domain}/pricing?utm_source=fuzz${rng.int(0, 9)}`;
    case 'email':
      return op.template === '/v1/auth/login' ? fx.member.email : `fuzz${rng.int(0, 1e6)}@example.com`;
    case 'password':
      return op.template === '/v1/auth/login' ? fx.member.password : 'a fuzz password 123';
    case 'name':
      return op.template.includes('goals') ||
        op.template.includes('events') ||
        op.template.includes('collect')
        ? rng.pick(['signup', 'old_goal', `goal_${rng.int(0, 40)}`])
        : `fuzz ${rng.int(0, 1e6)}`;
    case 'goal_ids':
      return fx.goalIds.slice(0, rng.int(1, fx.goalIds.length));
    case 'currency':
    case 'settlement_currency':
      return rng.pick(['EUR', 'USD', 'jpy']);
    case 'confirm_domain':
      return fx.siteD.domain;
    case 'domain':
      return `fuzz-${rng.int(0, 1e6)}.example`;
    case 'from':
      return dateDaysAgo(rng.int(7, 60));
    case 'to':
      return dateDaysAgo(rng.int(0, 6));
    case 'event_name':
      return 'signup';
    case 'emoji':
      return rng.pick(['🎉', '👍🏽', '🇫🇷', '1️⃣', '👨‍👩‍👧', null]);
    case 'transaction_id':
      return `tx_${rng.int(0, 1e6)}`;
    case 'expires_at':
      return rng.chance(0.5) ? null : new Date(Date.now() + 86_400_000).toISOString();
    default:
      return undefined;
  }
}

function stringFor(schema, rng) {
  const pattern = schema.pattern ?? '';
  if (schema.format === 'uuid' || pattern.includes('{8}-')) return randomUUIDFrom(rng);
  if (schema.format === 'date-time') return new Date(Date.now() - rng.int(0, 86_400_000)).toISOString();
  if (schema.format === 'email') return `fuzz${rng.int(0, 1e6)}@example.com`;
  if (pattern.includes('\\d{4}-\\d{2}-\\d{2}')) return dateDaysAgo(rng.int(0, 30));
  if (pattern.includes('https?')) return `https://fuzz.example/${rng.text(8)}`;
  if (pattern.includes('ttid_')) return `ttid_${rng.text(22)}`;
  if (pattern.includes('{8,64}')) return rng.text(rng.int(8, 64), 'abcdefghijklmnopqrstuvwxyz0123456789_-');
  if (pattern.includes('[a-z][a-z0-9_]'))
    return `g${rng.text(rng.int(0, 20), 'abcdefghijklmnopqrstuvwxyz_')}`;
  if (pattern.includes('[A-Za-z]{3}')) return 'EUR';
  const min = schema.minLength ?? 1;
  const max = Math.min(schema.maxLength ?? 40, min + 40);
  return rng.text(rng.int(min, Math.max(min, max)));
}

function randomUUIDFrom(rng) {
  const hex = rng.text(32, '0123456789abcdef');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** A value that the schema accepts, as far as this generator knows how (not always). */
export function generate(schema, ctx, name, depth = 0) {
  const { rng } = ctx;
  const byName = validByName(name, schema, ctx);
  if (byName !== undefined) return byName;
  if (!schema || depth > 6) return null;
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const nonNull = alternatives.filter((s) => s.type !== 'null');
    return generate(
      rng.pick(nonNull.length > 0 && rng.chance(0.9) ? nonNull : alternatives),
      ctx,
      name,
      depth,
    );
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const nonNullTypes = types.filter((t) => t !== 'null');
  const type = rng.pick(nonNullTypes.length > 0 && rng.chance(0.9) ? nonNullTypes : types);
  switch (type) {
    case 'object': {
      const value = {};
      const required = new Set(schema.required ?? []);
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || rng.chance(0.5)) value[key] = generate(sub, ctx, key, depth + 1);
      }
      if (!schema.properties && schema.additionalProperties && rng.chance(0.7)) {
        for (let i = rng.int(1, 3); i > 0; i--) value[`k${i}`] = rng.pick(['v', 1, true, null]);
      }
      return value;
    }
    case 'array': {
      const count = rng.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3));
      return Array.from({ length: count }, () => generate(schema.items, ctx, undefined, depth + 1));
    }
    case 'integer':
      return rng.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + 1000));
    case 'number':
      return Math.round(rng.next() * Math.min(schema.maximum ?? 1000, 1000) * 100) / 100;
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return stringFor(schema, rng);
  }
}
