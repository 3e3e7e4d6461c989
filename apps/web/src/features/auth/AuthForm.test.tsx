import { normalizePhone } from '@homesitter/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setupTestI18n } from '../../test/i18n';
import { AuthForm } from './AuthForm';
import { CountryPicker } from './CountryPicker';
import { composePhone, phoneError } from './phone';

beforeAll(setupTestI18n);

function renderForm(mode: 'signUp' | 'signIn', onSubmit = vi.fn()) {
  render(
    <MemoryRouter>
      <AuthForm mode={mode} processing={false} error={null} onSubmit={onSubmit} />
    </MemoryRouter>,
  );
  return onSubmit;
}

describe('phone rules (§5)', () => {
  it('is optional, needs 10 to 15 digits with the country code, and normalises', () => {
    expect(phoneError('')).toBeNull();
    expect(phoneError(composePhone({ country: 'US', callingCode: '1', national: '555 12' }))).toBe(
      'auth.validPhoneNumber',
    );
    expect(
      phoneError(composePhone({ country: 'US', callingCode: '1', national: '(555) 123-4567' })),
    ).toBeNull();
    expect(phoneError('+4915112345678901')).toBe('auth.validPhoneNumber');
    expect(phoneError('+4915112345678901', true)).toBeNull();
    expect(normalizePhone('555-123-4567')).toBe('+15551234567');
    expect(normalizePhone('1 555 123 4567')).toBe('+15551234567');
    expect(normalizePhone('+49 151 1234567')).toBe('+491511234567');
  });

  it('shows the inline error after leaving a too-short number and blocks the submit', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm('signUp');
    expect(screen.getByTestId('phone-country')).toHaveTextContent('+1');
    await user.type(screen.getByLabelText('Phone number (optional)'), '55512');
    await user.tab();
    expect(screen.getByText(/Please enter a valid phone number/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'a@b.co');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'secret-pass');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('debounces the country search by 250 ms', async () => {
    vi.useFakeTimers();
    try {
      render(<CountryPicker selected="US" onSelect={vi.fn()} onClose={vi.fn()} />);
      await act(async () => {
        await vi.dynamicImportSettled();
      });
      await act(async () => vi.advanceTimersByTimeAsync(10));
      const all = screen.getAllByRole('listitem').length;
      expect(all).toBeGreaterThan(200);
      fireEvent.change(screen.getByLabelText('Search countries'), { target: { value: 'germ' } });
      await act(async () => vi.advanceTimersByTimeAsync(200));
      expect(screen.getAllByRole('listitem')).toHaveLength(all);
      await act(async () => vi.advanceTimersByTimeAsync(60));
      expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
        expect.stringContaining('Germany'),
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('terms (§5)', () => {
  it('keeps sign-up disabled until the terms are accepted and hints once email and password are filled', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm('signUp');
    const submit = screen.getByRole('button', { name: 'Create account' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), 'a@b.co');
    expect(screen.queryByText('Please accept the terms to continue.')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'secret-pass');
    expect(screen.getByText('Please accept the terms to continue.')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox'));
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'a@b.co', password: 'secret-pass', phone: '' });
  });

  it('stops a submission without accepted terms with the agree-to-terms message', () => {
    const onSubmit = renderForm('signUp');
    fireEvent.submit(screen.getByRole('form'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You must agree to the Terms of Service and Privacy Policy.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sign-in needs email and password, offers the forgot-password link and no terms', async () => {
    const user = userEvent.setup();
    renderForm('signIn');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    const submit = screen.getByRole('button', { name: 'Sign in' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), 'a@b.co');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'x');
    expect(submit).toBeEnabled();
  });
});
