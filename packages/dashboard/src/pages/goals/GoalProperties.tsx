/** The values sent with a goal's events, key by key, most common first. */
import { type Days, useGoalProperties } from '../../api/goals';
import { BarList } from '../../components/BarList';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatCount } from '../../lib/format';

export function GoalProperties({
  siteId,
  name,
  days,
}: {
  siteId: string;
  name: string;
  days: Days | undefined;
}) {
  const properties = useGoalProperties(siteId, name, days);
  if (properties.isError) return <ErrorState error={properties.error} retry={() => properties.refetch()} />;
  if (!properties.data) return <SkeletonRows rows={4} />;
  const keys = properties.data.properties;
  if (keys.length === 0) {
    return (
      <p className="panel-empty">
        No properties were sent with this goal in the range. Add them as the second argument:{' '}
        <code>
          track('{name}', {'{'} plan: 'pro' {'}'})
        </code>
        .
      </p>
    );
  }
  return (
    <>
      {keys.map((property) => (
        <div key={property.key}>
          <h3 className="property-key mono">{property.key}</h3>
          <BarList
            caption={`Values of ${property.key}`}
            columns={['Value', 'Count']}
            rows={property.values.map((v) => ({
              key: v.value,
              name: <span className="name">{v.value === '' ? '(empty)' : v.value}</span>,
              value: v.count,
              figures: [formatCount(v.count)],
            }))}
          />
        </div>
      ))}
    </>
  );
}
