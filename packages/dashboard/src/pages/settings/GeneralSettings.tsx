/**
 * The name, reporting currency, attribution model and data retention of a site, saved together;
 * then the cookie domain.
 */

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery } from '../../api/account';
import type { SiteChange } from '../../api/settings';
import { COMMON_CURRENCIES } from '../../api/sites';
import type { AttributionModel, Site } from '../../api/types';
import { Field, FormError } from '../../components/Form';
import { CookieDomain } from './CookieDomain';
import { DataRetention, type Retention } from './DataRetention';
import { useUpdateSite } from './use-update-site';

const MODELS: { key: AttributionModel; label: string; words: string }[] = [
  {
    key: 'first_touch',
    label: 'First touch',
    words: 'All the credit to the source that first brought the person.',
  },
  {
    key: 'last_touch',
    label: 'Last touch',
    words: 'All the credit to the source of the visit that converted.',
  },
  {
    key: 'linear',
    label: 'Linear',
    words: 'The credit shared equally between every source the person came from.',
  },
  {
    key: 'time_decay',
    label: 'Time decay',
    words: 'Shared between the sources, more to the visits closer to the conversion.',
  },
];

export function GeneralSettings({ siteId, site }: { siteId: string; site: Site }) {
  const [name, setName] = useState(site.name ?? '');
  const [currency, setCurrency] = useState(site.currency);
  const [model, setModel] = useState<AttributionModel>(site.attribution_model);
  const [retention, setRetention] = useState<Retention>({
    events: site.events_retention_days,
    visits: site.visits_retention_days,
  });
  const save = useUpdateSite(siteId);
  const me = useQuery(meQuery);
  const change: SiteChange = {};
  if (name.trim() !== (site.name ?? '')) change.name = name.trim() || null;
  if (currency.trim().toUpperCase() !== site.currency) change.currency = currency.trim().toUpperCase();
  if (model !== site.attribution_model) change.attribution_model = model;
  if (retention.events !== site.events_retention_days) change.events_retention_days = retention.events;
  if (retention.visits !== site.visits_retention_days) change.visits_retention_days = retention.visits;
  const changed = Object.keys(change).length > 0;
  return (
    <>
      <form
        className="card"
        aria-labelledby="general-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (changed) save.mutate(change);
        }}
      >
        <h2 id="general-title">General</h2>
        <FormError error={save.error} />
        <Field
          label="Name"
          name="name"
          maxLength={60}
          placeholder={site.domain}
          hint="Shown in the dashboard. Leave it empty to show the domain."
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Field
          label="Domain"
          name="domain"
          value={site.domain}
          readOnly
          hint="The domain cannot be changed."
        />
        <Field
          label="Reporting currency"
          name="currency"
          list="currency-codes"
          maxLength={3}
          autoComplete="off"
          hint="A three-letter ISO 4217 code. Revenue in other currencies is converted to it."
          value={currency}
          onChange={(e) => setCurrency(e.target.value)}
        />
        <datalist id="currency-codes">
          {COMMON_CURRENCIES.map((code) => (
            <option key={code} value={code} />
          ))}
        </datalist>
        <fieldset>
          <legend>Attribution model</legend>
          <p className="small muted" style={{ marginTop: 0 }}>
            Which sources get the credit for a conversion in the reports.
          </p>
          {MODELS.map((m) => (
            <label className="choice" key={m.key}>
              <input
                type="radio"
                name="attribution_model"
                value={m.key}
                checked={model === m.key}
                onChange={() => setModel(m.key)}
              />
              <span>
                <strong>{m.label}</strong>
                <span className="small muted">{m.words}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <DataRetention value={retention} onChange={setRetention} locked={me.data?.role === 'member'} />
        <div className="row">
          <button type="submit" className="button primary" disabled={!changed || save.isPending}>
            Save the changes
          </button>
          {save.isSuccess && !changed && (
            <span className="small" role="status">
              Saved.
            </span>
          )}
        </div>
      </form>
      <CookieDomain siteId={siteId} site={site} />
    </>
  );
}
