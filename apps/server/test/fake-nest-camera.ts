import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import type { RTCPeerConnection as Peer } from 'werift';
import { resolveMediaTool } from '../src/modules/media/tool-paths.js';

/**
 * werift peers that stay on 127.0.0.1: sockets bound to it, and only loopback pairs tried (the machine's
 * other interfaces are still listed as candidates by werift, never used).
 */
export const LOOPBACK_PEER = {
  iceUseIpv6: false,
  iceInterfaceAddresses: { udp4: '127.0.0.1' },
  iceAdditionalHostAddresses: ['127.0.0.1'],
  iceFilterCandidatePair: (pair: { localCandidate: { host: string }; remoteCandidate: { host: string } }) =>
    pair.localCandidate.host === '127.0.0.1' && pair.remoteCandidate.host === '127.0.0.1',
};

/** The m-lines of an offer, in order: Google requires audio, video and a data channel (application). */
export const mediaOrder = (sdp: string) =>
  sdp
    .split(/\r?\n/)
    .filter((l) => l.startsWith('m='))
    .map((l) => l.slice(2).split(' ')[0]);

/** A Nest camera's side of a WebRTC stream: answers the offer and sends video RTP once connected. */
export interface FakeCameraPeer {
  answerSdp: string;
  /** RTP packets written so far. */
  sent: () => number;
  close: () => Promise<void>;
}

/**
 * Plays the camera as Google's WebRTC endpoint would: a werift peer answers the browser's offer with its
 * video sendonly and, once ICE connects, sends VP8 RTP. By default the packets are a fixed keyframe header,
 * 30 a second, not decodable: the server tests count that RTP arrives, not what it shows. With `pictures`
 * they are ffmpeg's test pattern encoded as VP8 (320×240, 15 a second), which a real browser plays.
 */
export async function startFakeCameraPeer(
  offerSdp: string,
  options: { pictures?: boolean } = {},
): Promise<FakeCameraPeer> {
  const { RTCPeerConnection, MediaStreamTrack, RtpHeader, RtpPacket } = await import('werift');
  const pc: Peer = new RTCPeerConnection(LOOPBACK_PEER);
  const track = new MediaStreamTrack({ kind: 'video' });
  await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
  const video = pc.getTransceivers().find((t) => t.kind === 'video');
  if (!video) throw new Error('the offer has no video');
  video.setDirection('sendonly');
  await video.sender.replaceTrack(track);
  await pc.setLocalDescription(await pc.createAnswer());
  let sent = 0;
  let stopSending = () => undefined as void;
  const sendSynthetic = () => {
    const timer = setInterval(() => {
      sent += 1;
      const header = new RtpHeader({
        payloadType: 96,
        sequenceNumber: sent & 0xffff,
        timestamp: (sent * 3000) >>> 0,
        marker: true,
        ssrc: 0x4e455354,
      });
      // VP8 payload descriptor (start of partition) and a keyframe's start code.
      track.writeRtp(new RtpPacket(header, Buffer.from([0x10, 0x00, 0x00, 0x9d, 0x01, 0x2a, 0x10, 0x00])));
    }, 33);
    stopSending = () => clearInterval(timer);
  };
  const sendPictures = async () => {
    // ffmpeg sends RTP to a socket of ours on loopback; each packet goes on to the browser (werift sets the
    // negotiated payload type and its own SSRC).
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    if (ended) return void socket.close();
    socket.on('message', (packet) => {
      sent += 1;
      track.writeRtp(packet);
    });
    const ffmpeg = spawn(
      resolveMediaTool('ffmpeg').path,
      // prettier-ignore
      ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15',
        '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '300k', '-g', '15',
        '-f', 'rtp', '-payload_type', '96', `rtp://127.0.0.1:${socket.address().port}?pkt_size=1200`],
      { stdio: 'ignore' },
    );
    stopSending = () => {
      ffmpeg.kill('SIGKILL');
      socket.close();
    };
  };
  let started = false;
  let ended = false;
  // Once: the connection closing and close() both end it.
  const end = () => {
    if (ended) return;
    ended = true;
    stopSending();
  };
  pc.connectionStateChange.subscribe((state) => {
    // The browser gone (a page closed without stopping the stream): the camera stops sending.
    if (state === 'failed' || state === 'closed') return end();
    if (state !== 'connected' || started || ended) return;
    started = true;
    if (options.pictures) void sendPictures();
    else sendSynthetic();
  });
  return {
    answerSdp: pc.localDescription!.sdp,
    sent: () => sent,
    close: async () => {
      end();
      await pc.close();
    },
  };
}
