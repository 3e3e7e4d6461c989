import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './index.css';
import { session } from './shared/lib/api';
import { initI18n } from './shared/lib/i18n';

void session.init();

// The current language's texts load in parallel with the session; render once they are there.
void initI18n()
  .catch((error: unknown) => console.warn('Translations failed to load', error))
  .then(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
