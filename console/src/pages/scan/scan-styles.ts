// The Mantine styles the door scanner and its setup page use beyond the entry's (app/public-
// styles.ts): the inputs (code, setup code, search, camera choice, people of a party) and the
// Entry / Exit switch (without its CSS it showed as two bare radio buttons). Not the whole of
// @mantine/core/styles.css (app/full-styles.ts): a door phone parses the scanner's CSS first.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/SegmentedControl.css';
