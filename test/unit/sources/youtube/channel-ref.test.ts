import { parseChannelRef } from '../../../../src/sources/youtube/channel-ref';

const ID = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';

describe('parseChannelRef', () => {
  it.each([
    [ID, { id: ID }],
    [`  ${ID}\n`, { id: ID }],
    ['@GoogleDevelopers', { handle: '@GoogleDevelopers' }],
    ['@a.b-c_d', { handle: '@a.b-c_d' }],
    ['@café·bar', { handle: '@café·bar' }],
    [`https://www.youtube.com/channel/${ID}`, { id: ID }],
    [`https://youtube.com/channel/${ID}/videos?view=0#x`, { id: ID }],
    [`http://m.youtube.com/channel/${ID}`, { id: ID }],
    [`youtube.com/channel/${ID}`, { id: ID }],
    ['https://www.youtube.com/@GoogleDevelopers', { handle: '@GoogleDevelopers' }],
    ['https://m.youtube.com/@GoogleDevelopers/featured', { handle: '@GoogleDevelopers' }],
    ['https://youtube.com/@caf%C3%A9', { handle: '@café' }],
    ['www.youtube.com/@GoogleDevelopers', { handle: '@GoogleDevelopers' }],
    ['HTTPS://WWW.YOUTUBE.COM/@Name', { handle: '@Name' }],
  ])('%j → %j', (ref, expected) => {
    expect(parseChannelRef(ref)).toEqual(expected);
  });

  it.each([
    '',
    'GoogleDevelopers',
    'UC_x5XG1OV2P6uZZ5FSM9Tt', // 23 characters
    'UC_x5XG1OV2P6uZZ5FSM9Ttww',
    'UU_x5XG1OV2P6uZZ5FSM9Ttw',
    '@ab',
    '@has space',
    '@thirty-one-characters-long-xxxx',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/user/GoogleDevelopers',
    'https://www.youtube.com/c/GoogleDevelopers',
    'https://www.youtube.com/channel/not-a-channel-id',
    `https://evil.example/channel/${ID}`,
    `https://youtube.com.evil.example/@name`,
    `https://user:pass@www.youtube.com/@name`,
    `https://www.youtube.com:8443/@name`,
    `ftp://www.youtube.com/@name`,
    'javascript:alert(1)',
  ])('%j → null', (ref) => {
    expect(parseChannelRef(ref)).toBeNull();
  });
});
