import { cleanup, render, screen } from '@testing-library/react';
import { version as reactVersion } from 'react';
import { version as reactDomVersion } from 'react-dom';
import { afterEach, describe, expect, it } from 'vitest';

afterEach(cleanup);

describe('the unit tests run on what ships', () => {
  it('imports React 19 and react-dom of the same version', () => {
    expect(reactVersion).toMatch(/^19\./);
    expect(reactDomVersion).toBe(reactVersion);
  });

  it('renders through react-dom: its fiber sits on the DOM node it rendered', () => {
    render(<p>mosaic</p>);
    const node = screen.getByText('mosaic');
    expect(Object.keys(node).some((key) => key.startsWith('__reactFiber$'))).toBe(true);
  });
});
