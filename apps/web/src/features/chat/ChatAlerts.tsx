import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { setCamerasHighlight } from '../../shared/lib/navFlags';
import { useRealtimeEvent } from '../../shared/lib/useRealtime';
import { pictureOf, showMessageToast } from './MessageToast';
import { addUnreadChat, clearUnreadChat } from './unread';

const onChat = (pathname: string) => pathname === '/chat';
const onCameras = (pathname: string) => pathname === '/cameras' || pathname.startsWith('/cameras/');

/**
 * What the home sitter says reaches the user on every signed-in screen (docs/product.md §1, §2): away from the
 * chat, a message shows a toast (with the alert's picture; a tap opens it in the chat, scrolled to it) and counts
 * on the Chat entry until the chat is seen; an alert also makes the cameras entry pulse until the cameras are
 * looked at. Rendered once, by the signed-in layout.
 */
export function ChatAlerts() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const where = useRef(pathname);

  useEffect(() => {
    where.current = pathname;
  }, [pathname]);

  useEffect(() => {
    if (onChat(pathname)) clearUnreadChat();
    if (onCameras(pathname)) setCamerasHighlight(false);
  }, [pathname]);

  // Signing out ends the layout: the next user of this tab starts with nothing new.
  useEffect(
    () => () => {
      clearUnreadChat();
      setCamerasHighlight(false);
    },
    [],
  );

  useRealtimeEvent('ReceiveMessage', (message) => {
    if (message.role !== 'agent' || onChat(where.current)) return;
    const alert = message.source_activity_uuid_list.length > 0;
    addUnreadChat();
    if (alert && !onCameras(where.current)) setCamerasHighlight(true);
    const camera = message.videos[0]?.camera_name;
    showMessageToast(
      {
        title: alert && camera ? camera : t('messageToast.title'),
        text: message.text,
        picture: pictureOf(message),
        action: t('messageToast.open'),
      },
      () => void navigate('/chat', { state: { highlightMessageId: message.message_uuid } }),
    );
  });

  return null;
}
