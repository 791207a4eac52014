import { Component, lazy, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { Modal } from './Modal';
import { ChunkError } from './ChunkError';
import type { NamedModalId } from '../core/modalIds';
import { retryImport, type RetryOptions } from '../core/retryImport';

class ChunkBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

type HostedProps = { onClose: () => void };

/**
 * A lazily loaded modal (ModalHost's registry): the import is retried (retryImport); if it still fails, a small
 * dialog (test id `modal-<id>-failed`) says so and offers "Try again", which imports it again (a new React.lazy, since
 * React keeps a failed one's error), without a full reload. Render it under a Suspense.
 */
export function retryableLazy(
  id: NamedModalId,
  load: () => Promise<{ default: ComponentType<HostedProps> }>,
  options?: RetryOptions,
): ComponentType<HostedProps> {
  const make = () => lazy(() => retryImport(load, options));
  let Lazy = make();
  function RetryableModal(props: HostedProps) {
    const { t } = useTranslation();
    const [attempt, setAttempt] = useState(0);
    const retry = () => {
      Lazy = make();
      setAttempt((n) => n + 1);
    };
    // Its own id: Modal takes its id off the stack when it unmounts, and "Try again" unmounts this one.
    const fallback = (
      <Modal id={`${id}-failed`} title={t('chunkError.modalTitle')} onClose={props.onClose}>
        <ChunkError onRetry={retry} />
      </Modal>
    );
    return (
      <ChunkBoundary key={attempt} fallback={fallback}>
        <Lazy {...props} />
      </ChunkBoundary>
    );
  }
  return RetryableModal;
}
