/** The sub-sections of a settings page, as links: each section has its own address. */
import { Link, useLocation } from 'wouter';

export function SectionNav({
  base,
  sections,
  label,
}: {
  base: string;
  sections: { path: string; label: string }[];
  label: string;
}) {
  const [location] = useLocation();
  const current = sections.find((s) => s.path !== '' && location.startsWith(base + s.path))?.path ?? '';
  return (
    <nav className="section-nav" aria-label={label}>
      {sections.map((section) => (
        <Link
          key={section.path}
          href={base + section.path}
          aria-current={section.path === current ? 'page' : undefined}
        >
          {section.label}
        </Link>
      ))}
    </nav>
  );
}

/** The section of `sections` the location is on ('' for the first). */
export function useSection(base: string, paths: string[]): string {
  const [location] = useLocation();
  return paths.find((p) => p !== '' && location.startsWith(base + p)) ?? '';
}
