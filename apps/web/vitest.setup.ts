import { configure } from '@testing-library/react';

// Screens are lazy chunks that Vitest transforms on first use; give them time on a busy machine.
configure({ asyncUtilTimeout: 8000 });
