import './staff.css';
import './conversations/conversations.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { StaffApp } from './StaffApp';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StaffApp />
  </StrictMode>,
);
