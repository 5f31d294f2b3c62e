// Every Mantine style: imported by the chunk of every page but the voting page, which makes do
// with app/public-styles.ts (the entry's).
import '@mantine/core/styles.css';
