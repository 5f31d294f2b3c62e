import { Button, Code, CopyButton, Group } from '@mantine/core';

/**
 * A value shown as code (wrapping anywhere, for tokens and links) with a copy button beside it;
 * the button says `copiedLabel` for a moment once copied.
 */
export function CopyValue(props: { value: string; copyLabel: string; copiedLabel: string; testId?: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="center" w="100%">
      <Code style={{ flex: 1, wordBreak: 'break-all' }} data-testid={props.testId}>
        {props.value}
      </Code>
      <CopyButton value={props.value}>
        {({ copied, copy }) => (
          <Button size="xs" variant={copied ? 'filled' : 'default'} onClick={copy}>
            {copied ? props.copiedLabel : props.copyLabel}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
