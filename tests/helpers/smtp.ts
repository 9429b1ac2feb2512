import net from "node:net";

/** One message a fake SMTP server received. */
export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/**
 * A minimal SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every message it is given, for
 * tests of what Tillflow sends. Enough of RFC 5321 for nodemailer: EHLO, MAIL, RCPT, DATA, QUIT.
 */
export async function startSmtpServer(): Promise<{
  url: string;
  mails: ReceivedMail[];
  close: () => Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let mail: ReceivedMail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp ready");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push(mail);
          mail = { from: "", to: [], data: "" };
          reply("250 OK queued");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") mail.from = line;
        if (verb === "RCPT") mail.to.push(line);
        if (verb === "DATA") inData = true;
        if (verb === "EHLO" || verb === "HELO") reply("250 fake-smtp");
        else if (verb === "DATA") reply("354 End data with <CR><LF>.<CR><LF>");
        else if (verb === "QUIT") socket.end("221 Bye\r\n");
        else reply("250 OK");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
