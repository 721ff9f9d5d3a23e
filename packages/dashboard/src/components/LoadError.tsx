/** A list that could not be loaded: a refusal (403) is said as the API words it, with no retry to offer. */
import { ApiError } from '../api/http';
import { ErrorState } from './States';

export function LoadError({ error, retry }: { error: Error; retry: () => void }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <p className="notice" role="alert">
        {error.message}
      </p>
    );
  }
  return <ErrorState error={error} retry={retry} />;
}
