import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { answerFetch } from '../../test/answer-fetch';
import { currentPath, renderApp } from '../../test/render-app';

const copies = import.meta.glob<unknown>('../../locales/*.json', { eager: true, import: 'default' });
let consentStatus = 201;
let consents: unknown[] = [];

async function openCurious(route = '/de/de/curious') {
  await renderApp(route);
  await screen.findByRole('checkbox');
}

async function pressContinue() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
  });
}

beforeEach(() => {
  consents = [];
  consentStatus = 201;
  sessionStore.update({ questionAnswer: 'yes' });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  answerFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.endsWith('/api/consent')) {
      consents.push(JSON.parse(String(init?.body)));
      return Response.json(
        consentStatus === 201
          ? { consent_id: 'c', created_at: 'now' }
          : { error: 'Too many requests. Please wait a moment and try again.', code: 'rateLimited' },
        { status: consentStatus },
      );
    }
    const code = /\/([\w-]+)\.json/.exec(url)?.[1];
    return new Response(JSON.stringify(copies[`../../locales/${code}.json`] ?? {}));
  });
});

afterEach(() => {
  cleanup();
  sessionStore.reset();
  vi.restoreAllMocks();
});

describe('terms acceptance (curious)', () => {
  it('labels the box with one sentence that holds the link to the terms, in the order of the language', async () => {
    await openCurious();
    expect(
      screen.getByRole('checkbox', { name: 'Ich habe die Teilnahmebedingungen gelesen und stimme ihnen zu' }),
    ).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Teilnahmebedingungen' });
    expect(link.getAttribute('href')).toBe('/de/de/terms');
    expect(link.closest('label')?.textContent).toBe('Ich habe die Teilnahmebedingungen gelesen und stimme ihnen zu');
  });

  it('puts the terms first where the verb comes last (Turkish)', async () => {
    await openCurious('/tr/tr/curious');
    const label = screen.getByRole('link', { name: 'Kullanım koşullarını' }).closest('label');
    expect(label?.textContent).toBe('Kullanım koşullarını okudum ve kabul ediyorum');
    expect(label?.firstElementChild?.getAttribute('href')).toBe('/tr/tr/terms');
  });

  it('asks for the tick before going on, and sends nothing without it', async () => {
    await openCurious();
    await pressContinue();
    const german = copies['../../locales/de.json'] as { curious: { mustAgree: string } };
    expect(screen.getByRole('alert').textContent).toBe(german.curious.mustAgree);
    expect(screen.getByRole('checkbox').getAttribute('aria-invalid')).toBe('true');
    expect(consents).toEqual([]);
    expect(currentPath()).toBe('/de/de/curious');
  });

  it('records the consent for this session, then opens the camera screen', async () => {
    await openCurious();
    fireEvent.click(screen.getByRole('checkbox'));
    await pressContinue();
    await waitFor(() => expect(currentPath()).toBe('/de/de/photo'));
    expect(consents).toEqual([
      {
        country_iso: 'de',
        language: 'de',
        question_answer: 'yes',
        consent_given: true,
        ip_address: null,
        user_session_id: sessionStore.getState().userSessionId,
      },
    ]);
    expect(sessionStore.getState().consentGiven).toBe(true);
  });

  it('says in German that the consent could not be recorded, and why, and stays', async () => {
    consentStatus = 429;
    await openCurious();
    fireEvent.click(screen.getByRole('checkbox'));
    await pressContinue();
    const german = copies['../../locales/de.json'] as {
      errors: { rateLimited: string };
      messages: { consentFailed: string };
    };
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(german.messages.consentFailed + german.errors.rateLimited),
    );
    expect(screen.getByRole('alert').querySelector('strong')?.textContent).toBe(german.messages.consentFailed);
    expect(sessionStore.getState().consentGiven).toBe(false);
    expect(currentPath()).toBe('/de/de/curious');
  });
});
