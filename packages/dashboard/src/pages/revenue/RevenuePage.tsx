// Being built in this session (issue 22); replaced before the change lands.
export default function RevenuePage(_props: { siteId?: string; name?: string; handle?: string }) {
  return (
    <main>
      <h1>Not built yet</h1>
    </main>
  );
}
