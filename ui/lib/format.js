// How people in Brazil read money, dates and the API's codes. Dates and instants are shown as
// the API wrote them: instants already carry the organization's offset, so no time zone is
// applied again here.
const fmt = (() => {
  const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
  const count = new Intl.NumberFormat('pt-BR');

  function brl(value) {
    return typeof value === 'number' && Number.isFinite(value) ? money.format(value) : '—';
  }

  function number(value) {
    return typeof value === 'number' ? count.format(value) : '—';
  }

  // "2026-11-19" or "2026-11-19T09:00:00-03:00" → "19/11/2026".
  function date(value) {
    const match = typeof value === 'string' && /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
    return match ? `${match[3]}/${match[2]}/${match[1]}` : '—';
  }

  // "2026-11-19T09:00:00.000000-03:00" → "19/11/2026 09:00" (the organization's wall clock).
  function instant(value) {
    const match = typeof value === 'string' && /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
    return match ? `${match[3]}/${match[2]}/${match[1]} ${match[4]}:${match[5]}` : date(value);
  }

  // The ISO day of a date or instant, for ordering and comparing.
  function day(value) {
    return typeof value === 'string' ? value.slice(0, 10) : '';
  }

  // "2026-11" → "nov/2026".
  function month(value) {
    const names = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
    const match = typeof value === 'string' && /^(\d{4})-(\d{2})/.exec(value);
    return match ? `${names[Number(match[2]) - 1]}/${match[1]}` : '—';
  }

  const LABELS = {
    status: {
      pending: 'A vencer',
      overdue: 'Vencida',
      paid: 'Paga',
      canceled: 'Cancelada',
      written_off: 'Baixada',
      in_agreement: 'Em acordo',
    },
    dunning: {
      not_started: 'Régua não iniciada',
      active: 'Régua ativa',
      paused: 'Régua pausada',
      awaiting_decision: 'Aguardando decisão',
      closed: 'Régua encerrada',
    },
    channel: { email: 'E-mail', sms: 'SMS', whatsapp: 'WhatsApp', letter: 'Carta' },
    notification: {
      scheduled: 'Agendada',
      queued: 'Na fila',
      sent: 'Enviada',
      delivered: 'Entregue',
      read: 'Lida',
      clicked: 'Clicada',
      failed: 'Falhou',
      bounced: 'Devolvida',
      canceled: 'Cancelada',
      skipped: 'Pulada',
    },
    skip: {
      missing_contact: 'sem contato para o canal',
      opted_out: 'o devedor pediu para não receber',
      charge_closed: 'cobrança encerrada',
      paused: 'régua pausada',
    },
    action: {
      notify: 'Mensagem',
      credit_bureau: 'Negativação',
      protest: 'Protesto',
      decision: 'Decisão',
      webhook: 'Webhook',
    },
    decision: {
      write_off: 'Baixar',
      restart: 'Recomeçar a régua',
      keep_open: 'Manter em aberto',
      agreement: 'Propor acordo',
      credit_bureau: 'Negativar',
      protest: 'Protestar',
    },
    age: {
      not_due: 'A vencer',
      days_1_30: '1 a 30 dias',
      days_31_60: '31 a 60 dias',
      days_61_90: '61 a 90 dias',
      over_90: 'Mais de 90 dias',
    },
    bureau: {
      requested: 'solicitada',
      notice_sent: 'aviso enviado',
      reported: 'negativado',
      removal_requested: 'baixa solicitada',
      removed: 'removido',
      canceled: 'cancelada',
      failed: 'falhou',
    },
    protest: {
      requested: 'solicitado',
      sent: 'enviado ao cartório',
      intimated: 'devedor intimado',
      paid: 'pago em cartório',
      protested: 'protestado',
      withdrawn: 'retirado',
      cancellation_requested: 'cancelamento solicitado',
      canceled: 'cancelado',
      rejected: 'rejeitado',
    },
    agreement: {
      awaiting_down_payment: 'Aguardando entrada',
      active: 'Ativo',
      completed: 'Quitado',
      broken: 'Quebrado',
      canceled: 'Cancelado',
    },
  };

  // The pt-BR label of a code, or the code itself when it is new to the view.
  function label(kind, code) {
    if (code === null || code === undefined) return '—';
    return (LABELS[kind] && LABELS[kind][code]) || String(code).replace(/_/g, ' ');
  }

  // What a person types back into ISO: "17/12/2026" → "2026-12-17"; null when it is no date.
  function parseDate(text) {
    const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text || '');
    if (!match) return null;
    const iso = `${match[3]}-${match[2].padStart(2, '0')}-${match[1].padStart(2, '0')}`;
    const check = new Date(`${iso}T12:00:00Z`);
    return Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== iso ? null : iso;
  }

  // "1.234,56" or "1234.56" or "R$ 300" → a number; null when it is none.
  function parseMoney(text) {
    let t = String(text || '').replace(/R\$|\s/g, '');
    if (t === '') return 0;
    if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
    return /^\d+(\.\d{1,2})?$/.test(t) ? Number(t) : null;
  }

  function moneyInput(value) {
    return typeof value === 'number' && value > 0 ? value.toFixed(2).replace('.', ',') : '';
  }

  return { brl, number, date, instant, day, month, label, parseDate, parseMoney, moneyInput };
})();
