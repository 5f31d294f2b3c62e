import { Component, type ReactNode } from 'react';

/**
 * Catches a page that failed to load or render and shows `fallback(error)` instead of a blank
 * page. `resetKey` (the location) clears the error when the user navigates elsewhere.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; fallback: (error: unknown) => ReactNode; resetKey: string },
  { error: unknown; key: string }
> {
  override state = { error: undefined as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : this.props.fallback(this.state.error);
  }
}
