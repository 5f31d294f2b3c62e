import Joi from 'joi';

/** Routing key of an e-mail job, published by any service on its own exchange. */
export const EMAIL_REQUESTED = 'email.requested';

/**
 * An e-mail to send (design.md, "Jobs"): the producing service writes it to its outbox; its
 * mail worker sends it over SMTP, once per message id.
 */
export interface EmailRequested {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Why it is sent (`invitation`, `vote-verification`, `submission-created`...), for logs. */
  reason: string;
  attachments?: Array<{ filename: string; contentType: string; contentBase64: string; cid?: string }>;
}

export const emailRequestedSchema = Joi.object<EmailRequested>({
  to: Joi.array()
    .items(Joi.string().email({ tlds: false }))
    .min(1)
    .max(100)
    .required(),
  subject: Joi.string().min(1).max(998).required(),
  text: Joi.string().allow('').required(),
  html: Joi.string(),
  reason: Joi.string().required(),
  attachments: Joi.array().items(
    Joi.object({
      filename: Joi.string().required(),
      contentType: Joi.string().required(),
      contentBase64: Joi.string().base64().required(),
      cid: Joi.string(),
    }),
  ),
});
